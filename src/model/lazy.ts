/** A schema built on first use, so importing the SDK builds none; everything done with it reaches the built schema. */
export function lazySchema<T extends object>(build: () => T): T {
  let built: T | undefined;
  const schema = (): T => (built ??= build());
  // Node's `util.inspect` shows a proxy's target, not what its traps return.
  const show = (_: number, options: object, inspect: (value: unknown, options: object) => string) => inspect(schema(), options);
  const target = { [Symbol.for('nodejs.util.inspect.custom')]: show };
  const proxy: T = new Proxy(target as unknown as T, {
    // zod's `register` adds the schema it was built on: the registry must hold what users hold, this proxy.
    get: (_, key) => (key === 'register' ? register : Reflect.get(schema(), key)),
    set: (_, key, value) => Reflect.set(schema(), key, value),
    has: (_, key) => Reflect.has(schema(), key),
    ownKeys: () => Reflect.ownKeys(schema()),
    // Reported configurable: the proxy's own target holds none of these properties.
    getOwnPropertyDescriptor: (_, key) => {
      const descriptor = Reflect.getOwnPropertyDescriptor(schema(), key);
      return descriptor && { ...descriptor, configurable: true };
    },
    defineProperty: (_, key, descriptor) => Reflect.defineProperty(schema(), key, descriptor),
    deleteProperty: (_, key) => Reflect.deleteProperty(schema(), key),
    getPrototypeOf: () => Reflect.getPrototypeOf(schema()),
    // Refused: a frozen proxy would have to list exactly its target's keys, which are not the schema's.
    preventExtensions: () => false,
  });
  const register = (registry: { add(schema: T, meta: unknown): unknown }, meta: unknown): T => {
    registry.add(proxy, meta);
    return proxy;
  };
  return proxy;
}
