/**
 * Lua scripts run atomically inside Redis, so replicas sharing one Redis see one consistent
 * state: no read-then-write races between the check and the update.
 */

/** KEYS: counter. ARGV: ttlMs. */
export const INCREMENT = `
local value = redis.call('INCR', KEYS[1])
if value == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return value`;

/** KEYS: window zset. ARGV: limit, windowMs, nowMs, unique member. Returns {allowed, count, oldest}. */
export const HIT_WINDOW = `
local limit = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local now = tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local count = redis.call('ZCARD', KEYS[1])
local allowed = 0
if count < limit then
  redis.call('ZADD', KEYS[1], now, ARGV[4])
  count = count + 1
  allowed = 1
end
redis.call('PEXPIRE', KEYS[1], window)
local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
return {allowed, count, oldest[2] or ARGV[3]}`;

/**
 * KEYS: ranking zset, payload hash, sequence. ARGV: score, payload, keep.
 * Members are (1e15 - sequence), zero-padded: among equal scores the reverse-lexical order of
 * ZREVRANGE then puts the earlier insert first, and trimming drops the later one.
 * Returns the 1-based rank, or 0 when the entry did not make the cut.
 */
export const RANKED_INSERT = `
local keep = tonumber(ARGV[3])
local seq = redis.call('INCR', KEYS[3])
local member = string.format('%016.0f', 1e15 - seq)
redis.call('ZADD', KEYS[1], ARGV[1], member)
local rank = redis.call('ZREVRANK', KEYS[1], member)
if rank < keep then redis.call('HSET', KEYS[2], member, ARGV[2]) end
local size = redis.call('ZCARD', KEYS[1])
if size > keep then
  local dropped = redis.call('ZRANGE', KEYS[1], 0, size - keep - 1)
  redis.call('ZREMRANGEBYRANK', KEYS[1], 0, size - keep - 1)
  redis.call('HDEL', KEYS[2], unpack(dropped))
end
if rank < keep then return rank + 1 end
return 0`;

/** KEYS: ranking zset, payload hash. ARGV: count. */
export const RANKED_TOP = `
local members = redis.call('ZREVRANGE', KEYS[1], 0, tonumber(ARGV[1]) - 1)
if #members == 0 then return {} end
return redis.call('HMGET', KEYS[2], unpack(members))`;
