/**
 * Thrown when grading or setup itself broke: an infrastructure error, never the submission's fault.
 * `permanent`: the same step is certain to fail again (a test patch that does not apply, a base
 * commit the image lacks), so trying the sample again would only waste time.
 */
export class GradingError extends Error {
  readonly permanent: boolean;

  constructor(message: string, options: { permanent?: boolean } = {}) {
    super(message);
    this.name = 'GradingError';
    this.permanent = options.permanent ?? false;
  }
}

export { isPermanentError } from '../../docker/errors.js';
