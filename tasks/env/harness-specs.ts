import type { LogParserName } from './log-parsers.js';

/**
 * How the SWE-bench harness tests each repository, per version: its test command, what its eval
 * script sets before the tests, and which log parser reads the output. Facts from the harness's
 * public tables (`swebench/harness/constants`, 3.x); the tests print the coverage over SWE-bench
 * Verified and Lite.
 */
export interface HarnessSpec {
  /** The test command as the harness writes it; the test files (directives) are appended. */
  testCmd: string;
  /** Variables the eval script exports before the tests. */
  env: Record<string, string>;
  /** Other eval-script lines, run as root once per sandbox before anything else (errors ignored, as there). */
  rootSetup: string[];
  parser: LogParserName;
  /** CPUs the harness gives the container (its spec's `nano_cpus`); none: the engine's default, every CPU. */
  cpus?: number;
  /** Addresses the tests expect to drop packets, as they do on the internet the harness's containers reach. */
  tarpits?: string[];
}

export interface RepoSpecs {
  /** The versions the harness has a spec for. */
  versions: readonly string[];
  /** A version's spec; for a version the harness lacks, the repository's current one. */
  spec(version: string | undefined): HarnessSpec;
  /**
   * Repository files that are part of the test runner rather than the code under test: a change to
   * one is test tampering, whatever its name (sympy's runner lives in its own source tree).
   */
  runnerFiles: readonly string[];
}

const PYTEST = 'pytest -rA';
const DJANGO = './tests/runtests.py --verbosity 2 --settings=test_sqlite --parallel 1';
const DJANGO_NO_PARALLEL = './tests/runtests.py --verbosity 2';
const ASTROPY_OLD = 'pytest -rA -vv -o console_output_style=classic --tb=no';
const SEABORN = 'pytest --no-header -rA';
const SPHINX = 'tox --current-env -epy39 -v --';
const SYMPY = "PYTHONWARNINGS='ignore::UserWarning,ignore::SyntaxWarning' bin/test -C --verbose";

const DJANGO_LOCALE = { LANG: 'en_US.UTF-8', LC_ALL: 'en_US.UTF-8', LANGUAGE: 'en_US:en' };
const DJANGO_OLD_ENV = { ...DJANGO_LOCALE, PYTHONIOENCODING: 'utf8' };
const DJANGO_LOCALE_GEN = "sed -i '/en_US.UTF-8/s/^# //g' /etc/locale.gen && locale-gen";

function spec(testCmd: string, parser: LogParserName, extra: Partial<Pick<HarnessSpec, 'env' | 'rootSetup' | 'cpus' | 'tarpits'>> = {}): HarnessSpec {
  return {
    testCmd,
    parser,
    env: extra.env ?? {},
    rootSetup: extra.rootSetup ?? [],
    ...(extra.cpus ? { cpus: extra.cpus } : {}),
    ...(extra.tarpits ? { tarpits: extra.tarpits } : {}),
  };
}

/** One spec for every version of a repository. */
function uniform(versions: string, s: HarnessSpec, runnerFiles: string[] = []): RepoSpecs {
  return { versions: versions.split(' '), spec: () => s, runnerFiles };
}

const DJANGO_SPECS: Record<string, HarnessSpec> = {};
for (const v of ['1.7', '1.8', '1.10', '1.11', '2.0', '2.1', '2.2']) DJANGO_SPECS[v] = spec(DJANGO, 'django', { env: DJANGO_OLD_ENV });
DJANGO_SPECS['1.9'] = spec(DJANGO_NO_PARALLEL, 'django', { env: DJANGO_OLD_ENV });
for (const v of ['1.4', '1.5', '1.6']) DJANGO_SPECS[v] = spec(DJANGO, 'django');
for (const v of ['3.0', '3.1', '3.2']) DJANGO_SPECS[v] = spec(DJANGO, 'django', { env: DJANGO_LOCALE, rootSetup: [DJANGO_LOCALE_GEN] });
for (const v of ['4.0', '4.1', '4.2', '5.0', '5.1', '5.2']) DJANGO_SPECS[v] = spec(DJANGO, 'django');

const PYLINT_TWO_CPUS = ['2.14', '2.15', '2.17', '3.0', '3.1', '3.2', '3.3', '4.0'];

const ASTROPY_OLD_VERSIONS = ['0.1', '0.2', '0.3', '0.4', '1.1', '1.2', '1.3'];

export const HARNESS_SPECS: Record<string, RepoSpecs> = {
  'astropy/astropy': {
    versions: [...ASTROPY_OLD_VERSIONS, '3.0', '3.1', '3.2', '4.1', '4.2', '4.3', '5.0', '5.1', '5.2', 'v5.3'],
    spec: (version) => (version !== undefined && ASTROPY_OLD_VERSIONS.includes(version) ? spec(ASTROPY_OLD, 'pytest-v2') : spec(PYTEST, 'pytest-v2')),
    runnerFiles: [],
  },
  'django/django': {
    versions: Object.keys(DJANGO_SPECS),
    spec: (version) => (version !== undefined ? DJANGO_SPECS[version] : undefined) ?? spec(DJANGO, 'django'),
    runnerFiles: ['tests/runtests.py', 'tests/test_sqlite.py'],
  },
  'matplotlib/matplotlib': uniform('1.0 1.1 1.2 1.3 1.4 1.5 2.0 2.1 2.2 3.0 3.1 3.2 3.3 3.4 3.5 3.6 3.7 3.8 3.9', spec(PYTEST, 'matplotlib')),
  'mwaskom/seaborn': uniform('0.11 0.12 0.13 0.14', spec(SEABORN, 'seaborn')),
  'pallets/flask': uniform('2.0 2.1 2.2 2.3 3.0 3.1', spec(PYTEST, 'pytest')),
  'psf/requests': uniform(
    '0.7 0.8 0.9 0.11 0.13 0.14 1.1 1.2 2.0 2.2 2.3 2.4 2.5 2.7 2.8 2.9 2.10 2.11 2.12 2.17 2.18 2.19 2.22 2.25 2.26 2.27 2.31 3.0',
    // Its connect-timeout tests time out against an address that drops packets.
    spec(PYTEST, 'pytest-options', { tarpits: ['10.255.255.1'] }),
  ),
  'pydata/xarray': uniform('0.12 0.18 0.19 0.20 2022.03 2022.06 2022.09 2023.07 2024.05', spec(PYTEST, 'pytest')),
  'pylint-dev/pylint': {
    versions: '2.8 2.9 2.10 2.11 2.13 2.14 2.15 2.16 2.17 3.0 3.1 3.2 3.3 4.0'.split(' '),
    // Its multiprocessing tests skip on one CPU: the harness gives these versions two.
    spec: (version) => spec(PYTEST, 'pytest-options', PYLINT_TWO_CPUS.includes(version ?? '') ? { cpus: 2 } : {}),
    runnerFiles: [],
  },
  'pytest-dev/pytest': uniform('4.4 4.5 4.6 5.0 5.1 5.2 5.3 5.4 6.0 6.2 6.3 7.0 7.1 7.2 7.4 8.0 8.1 8.2 8.3 8.4', spec(PYTEST, 'pytest')),
  'scikit-learn/scikit-learn': uniform('0.20 0.21 0.22 1.3 1.4 1.5 1.6', spec(PYTEST, 'pytest-v2')),
  'sphinx-doc/sphinx': uniform(
    '1.5 1.6 1.7 1.8 2.0 2.1 2.2 2.3 2.4 3.0 3.1 3.2 3.3 3.4 3.5 4.0 4.1 4.2 4.3 4.4 4.5 5.0 5.1 5.2 5.3 6.0 6.2 7.0 7.1 7.2 7.3 7.4 8.0 8.1',
    spec(SPHINX, 'pytest-v2'),
  ),
  'sympy/sympy': uniform('0.7 1.0 1.1 1.2 1.4 1.5 1.6 1.7 1.8 1.9 1.10 1.11 1.12 1.13 1.14', spec(SYMPY, 'sympy'), [
    'bin/test',
    'sympy/testing/runtests.py',
    'sympy/utilities/runtests.py',
    'sympy/testing/pytest.py',
    'sympy/utilities/pytest.py',
  ]),
};

/** The harness's table entry for a repository (`owner/name`, any case), if it has one. */
export function harnessRepo(repo: string): RepoSpecs | undefined {
  return HARNESS_SPECS[repo.toLowerCase()];
}

/**
 * Paths of a test patch the harness passes to the runner: every file of the patch except data
 * files by extension (`csv` without its dot, as the harness has it).
 */
export const NON_TEST_EXTENSIONS = ['.json', '.png', 'csv', '.txt', '.md', '.jpg', '.jpeg', '.pkl', '.yml', '.yaml', '.toml'];
