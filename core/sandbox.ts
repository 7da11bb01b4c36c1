/**
 * The fixed places and users of every sandbox, whichever room sets it up: the sandbox backends, the task environments
 * that grade in it and the scaffolds that hand it to the agent all name them from here.
 */

/** The unprivileged user baked into the sandbox images (uid AGENT_UID). */
export const AGENT_USER = 'agent';
export const ROOT_USER = 'root';
/**
 * AGENT_USER's numeric id, for image builds and for `FileToWrite`: files travel as tar archives in every backend, and a
 * tar header carries numeric owners (a name there would need the container's user database, which the writer cannot read).
 */
export const AGENT_UID = 1000;
/** AGENT_USER's home folder, writable by it. */
export const AGENT_HOME = `/home/${AGENT_USER}`;

/**
 * The harness's own root-owned folder in every sandbox: setup files, grading copies, patches, hidden tests. Outside
 * the agent's work dir, and left out of the changes a sample reports.
 */
export const HARNESS_DIR = '/opt/impossiblebench';
