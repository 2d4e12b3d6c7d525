/** The game page's words (the site is in English; the portal has its own catalogues). */
export const GAME_TEXT = {
  heading: "Game",
  area: "Game area. Left and right arrow keys (or A and D) move; Space starts or pauses; P pauses; R restarts; M turns sound on or off.",
  keysHelp:
    "Keys work as soon as the page opens: ← → or A D move, Space starts and pauses, R restarts, M mutes.",
  touchHelp: "Tap Start, then hold a finger on the sky where the ship should go.",
  start: "Start",
  pause: "Pause",
  resume: "Resume",
  restart: "Restart",
  playAgain: "Play again",
  soundLabel: "Sound",
  score: "Score",
  level: "Level",
  lives: "Lives",
  best: "Best",
  livesLeft: (n: number) => `${n} ${n === 1 ? "life" : "lives"} left`,
  canvasReadyKeys: "Press Space to start",
  canvasReadyTouch: "Tap Start to play",
  canvasPaused: "Paused: press P or Space",
  canvasOver: "Game over",
  paused: "Paused.",
  levelUp: (level: number) => `Level ${level}: faster now.`,
  hit: (lives: number) => `Hit by a rock: ${lives} ${lives === 1 ? "life" : "lives"} left.`,
  over: "Game over",
  timeUp: "Time's up: an hour of play",
  finalScore: (score: string) => `Your score: ${score}.`,
  newBest: "A new personal best!",
  bestWas: (best: string) => `Your best in this browser: ${best}.`,
  formLabel: "Put your score on the board",
  nameLabel: "Your name for the board",
  submit: "Submit score",
  wait: (s: number) => `Wait ${s} s`,
  nameRule: (max: number) =>
    `1 to ${max} characters, at least one of them a letter, digit, punctuation mark or symbol (spaces and invisible characters alone are not a name); no control characters or text-direction marks.`,
  savedOut: (name: string, score: string) =>
    `Saved ${name}'s ${score}: not in the top 10 this time.`,
  savedRank: (name: string, rank: number) => `Saved: ${name} is number ${rank} on the board.`,
} as const;

export const formatScore = (n: number) => n.toLocaleString("en");
