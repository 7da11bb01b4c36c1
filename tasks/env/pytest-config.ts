import { readShipped } from '../../core/shipped.js';

/**
 * `python3 - MODE PRISTINE CURRENT`: the pytest sections of a setup.cfg or pyproject.toml. `diff` prints `changed` when
 * they differ between the two files (a missing file has none); `restore` rewrites CURRENT with its other sections as
 * they are and the pytest ones as in PRISTINE, so a graded copy keeps an agent's packaging change but not a plugin or
 * option it slipped into pytest's settings. Plain text sections (no TOML or INI library), for any Python 3.
 */
export const PYTEST_CONFIG_PY = readShipped(import.meta.url, 'pytest-config.py');
