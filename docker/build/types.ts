import type { Steps } from './progress.js';

/** What a working sandbox image reports about itself: the versions the harness relies on. */
export interface ImageCheck {
  python: string;
  pytest: string;
  git: string;
}

export interface BuildOptions {
  /** Never contact a registry: use the image if present, else build from Debian packages. */
  offline?: boolean;
  /** Build even when a current image is present. */
  rebuild?: boolean;
  /** Debian archive to bootstrap from; default: the one apt on this machine uses. */
  mirror?: string;
  signal?: AbortSignal;
  steps?: Steps;
}

export interface BuildOutcome {
  image: string;
  how: 'present' | 'pulled' | 'built';
  check: ImageCheck;
}
