import { StoreError, type Namespace, type Store } from '../../src/store/index.ts';

/**
 * A store whose writes can be made to fail as a read-only SQLite file makes them fail. Injected at the
 * store's interface because `chmod` binds neither root nor a connection that is already open. Any method
 * not known to only read counts as a write, so methods added to the store later are covered too.
 */
export interface SwitchableStore {
  readonly store: Store;
  setReadOnly(on: boolean): void;
}

const NAMESPACE_READS = new Set<PropertyKey>(['name', 'get', 'has', 'entries']);
const STORE_PASS = new Set<PropertyKey>(['kind', 'close']);

/** What the store raises when SQLite refuses a write: a StoreError carrying the driver's error. */
function readOnlyError(): Error {
  const cause = Object.assign(new Error('SQLITE_READONLY: attempt to write a readonly database'), {
    code: 'SQLITE_READONLY',
    errno: 8,
  });
  return new StoreError('the store failed (write): SQLITE_READONLY', { cause });
}

function intercept<T extends object>(
  target: T,
  passes: (key: PropertyKey) => boolean,
  readOnly: () => boolean,
  wrapResult: (key: PropertyKey, result: unknown) => unknown = (_key, result) => result,
): T {
  return new Proxy(target, {
    get(object, key) {
      const value: unknown = Reflect.get(object, key, object);
      if (typeof value !== 'function') return value;
      const method = value as (...args: unknown[]) => unknown;
      return (...args: unknown[]) => {
        if (!passes(key) && readOnly()) return Promise.reject(readOnlyError());
        return wrapResult(key, method.apply(object, args));
      };
    },
  });
}

export function readOnlySwitch(store: Store): SwitchableStore {
  let readOnly = false;
  const isReadOnly = () => readOnly;
  const wrapNamespace = (namespace: Namespace): Namespace =>
    intercept(namespace, (key) => NAMESPACE_READS.has(key), isReadOnly);
  const wrapped = intercept(
    store,
    (key) => key === 'namespace' || STORE_PASS.has(key),
    isReadOnly,
    (key, result) => (key === 'namespace' ? wrapNamespace(result as Namespace) : result),
  );
  return {
    store: wrapped,
    setReadOnly(on) {
      readOnly = on;
    },
  };
}
