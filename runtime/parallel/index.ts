// Worker threads for the CPU workloads: the pool and its helpers.
export { Pool, withPool, parseThreads, maxThreads, splitRange, sharedArray, toShared, ThreadCountError, type Task } from './pool.ts';
