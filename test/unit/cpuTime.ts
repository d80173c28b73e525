// The CPU time a synchronous piece of work costs this process, for tests that a parser stays linear on
// hostile input. Unlike the wall clock it does not grow when other processes share the machine, so
// a bound on it checks the work done, not the load beside it.
export function cpuMs<T>(work: () => T): { readonly result: T; readonly ms: number } {
  const before = process.cpuUsage();
  const result = work();
  const used = process.cpuUsage(before);
  return { result, ms: (used.user + used.system) / 1000 };
}
