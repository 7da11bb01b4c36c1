/** Thrown when grading itself broke: an infrastructure error, never the submission's fault. */
export class GradingError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'GradingError';
  }
}
