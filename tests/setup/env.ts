/**
 * Runs before every test file: the configuration follows process.env, so a test may set a variable for one case and
 * put it back after, as a restarted server would read it (config.ts keeps one configuration per process otherwise).
 */
import { followEnvironment } from '../../src/server/config.ts';

followEnvironment();
