/** Types every query module shares. */
import type { Db } from './client.ts';

/** A database handle or an open transaction: a function that takes one runs inside its caller's transaction, if any. */
export type DbOrTx = Db | Parameters<Parameters<Db['transaction']>[0]>[0];
