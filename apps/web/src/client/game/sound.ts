/**
 * The game's sounds, made by Web Audio oscillators (no audio files to fetch). The AudioContext is
 * created on the first key or tap (`unlock`): browsers refuse to start one before a gesture, and
 * one made early would sit suspended and log a warning.
 */
export type SoundName = "start" | "catch" | "hit" | "level" | "over";

type Note = { freq: number; to?: number; at: number; length: number; wave: OscillatorType };

const NOTES: Record<SoundName, Note[]> = {
  start: [
    { freq: 440, at: 0, length: 0.08, wave: "square" },
    { freq: 660, at: 0.08, length: 0.12, wave: "square" },
  ],
  catch: [{ freq: 880, to: 1320, at: 0, length: 0.09, wave: "triangle" }],
  hit: [
    { freq: 220, to: 70, at: 0, length: 0.25, wave: "sawtooth" },
    { freq: 110, to: 50, at: 0.02, length: 0.25, wave: "square" },
  ],
  level: [523, 659, 784, 1047].map((freq, i) => ({
    freq,
    at: i * 0.08,
    length: 0.1,
    wave: "square" as const,
  })),
  over: [392, 330, 262, 196].map((freq, i) => ({
    freq,
    at: i * 0.14,
    length: 0.16,
    wave: "triangle" as const,
  })),
};

/** Quiet: the sounds sit under speech from a screen reader rather than over it. */
const VOLUME = 0.08;

export type Sound = {
  unlock: () => void;
  play: (name: SoundName) => void;
  setMuted: (muted: boolean) => void;
};

export function createSound(muted: boolean): Sound {
  let context: AudioContext | null = null;
  let silent = muted;
  const ready = (): AudioContext | null => {
    if (silent || typeof AudioContext === "undefined") return null;
    context ??= new AudioContext();
    if (context.state === "suspended") void context.resume();
    return context;
  };
  return {
    unlock: () => void ready(),
    setMuted: (value) => {
      silent = value;
      if (value && context?.state === "running") void context.suspend();
      else if (!value) ready();
    },
    play: (name) => {
      const audio = silent ? null : context;
      if (audio?.state !== "running") return;
      const now = audio.currentTime;
      for (const note of NOTES[name]) {
        const osc = audio.createOscillator();
        const gain = audio.createGain();
        osc.type = note.wave;
        osc.frequency.setValueAtTime(note.freq, now + note.at);
        if (note.to)
          osc.frequency.exponentialRampToValueAtTime(note.to, now + note.at + note.length);
        // A quick attack and a fall to silence, so no note clicks at its ends.
        gain.gain.setValueAtTime(0.0001, now + note.at);
        gain.gain.exponentialRampToValueAtTime(VOLUME, now + note.at + 0.01);
        gain.gain.exponentialRampToValueAtTime(0.0001, now + note.at + note.length);
        osc.connect(gain).connect(audio.destination);
        osc.start(now + note.at);
        osc.stop(now + note.at + note.length + 0.02);
      }
    },
  };
}
