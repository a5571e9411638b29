/**
 * The browser's translator: the part of i18next 23 this app uses, for react-i18next, in about a
 * tenth of i18next's weight (it was 14 KiB gzip on every page; docs/decisions/0015). The server
 * keeps i18next (remix-i18next); a unit test (tests/unit/i18n-lite.test.ts) checks that both give
 * the same text for every key of every namespace and language, with counts, variables, namespaces
 * and default values, so hydration finds the text the server rendered.
 *
 * Kept from i18next, with its rules: "ns:key" and nested keys ("a.b.c", flat keys with dots
 * too), natural-language keys, the fallback language, plurals by Intl.PluralRules (key_one,
 * key_other, key_many, key_zero for a count of 0), context (key_male), {{variables}} (also
 * {{- raw}} and {{a.b}}; an unknown one is left as written), defaultValue, key arrays, getFixedT
 * (language, namespace, keyPrefix), languageChanged events, namespaces loaded per language with
 * retries. {{value, format}} through the legacy `interpolation.format` function. Not kept (nothing here
 * uses them): $t() nesting, i18next's built-in formatters,
 * post-processors, returnObjects' deep translation, saveMissing, cimode.
 */

type Json = string | number | boolean | null | { [key: string]: Json } | Json[];
type Bundle = Record<string, Json>;
/** One namespace of one language, as its JSON file holds it. */
export type LiteBundle = Bundle;
type Options = Record<string, unknown>;
type Listener = (...args: unknown[]) => void;
type TFunction = ((key: string | string[], options?: Options | string, ...rest: unknown[]) => string) & {
  lng?: string;
  lngs?: string[];
  ns?: string | string[];
  keyPrefix?: string;
};

export interface LiteConfig {
  supportedLngs: string[];
  /** i18next's legacy `interpolation.format`, for `{{value, format}}`. */
  interpolation?: { format?: (value: unknown, format: string | undefined, lng: string | undefined, options: Options) => string; [key: string]: unknown };
  fallbackLng: string;
  defaultNS: string;
  /** i18next's `fallbackNS`: looked up last when a key without a namespace prefix is missing from the namespaces asked for. */
  fallbackNS?: string;
  ns: string[];
  react?: Record<string, unknown>;
  [key: string]: unknown;
}

/** Reads one namespace of one language; rejects with { retry } on failure. */
export type LoadBundle = (language: string, namespace: string) => Promise<Bundle>;

const NS_SEPARATOR = ":";
const KEY_SEPARATOR = ".";
const PLURAL_SEPARATOR = "_";
const CONTEXT_SEPARATOR = "_";
const FORMAT_SEPARATOR = ",";
const NATURAL_LANGUAGE_CHARS = /( |,|\?|!|;)/;
const MAX_RETRIES = 5;
const RETRY_WAIT_MS = 350;

const isString = (v: unknown): v is string => typeof v === "string";

/** i18next's looksLikeObjectPath for the separators ":" and ".". */
function looksLikeObjectPath(key: string): boolean {
  let matched = !NATURAL_LANGUAGE_CHARS.test(key);
  if (!matched) {
    const ki = key.indexOf(KEY_SEPARATOR);
    if (ki > 0 && !NATURAL_LANGUAGE_CHARS.test(key.substring(0, ki))) matched = true;
  }
  return matched;
}

const cleanKey = (key: string) => (key && key.indexOf("###") > -1 ? key.replace(/###/g, ".") : key);

function getPath(object: unknown, path: string | string[]): unknown {
  const stack = isString(path) ? path.split(".") : path;
  let current = object as Record<string, unknown> | string | null | undefined;
  let index = 0;
  while (index < stack.length - 1) {
    if (!current || isString(current)) return undefined;
    const key = cleanKey(stack[index]);
    current = Object.prototype.hasOwnProperty.call(current, key) ? (current[key] as Record<string, unknown>) : {};
    ++index;
  }
  if (!current || isString(current)) return undefined;
  return current[cleanKey(stack[index])];
}

/** i18next's deepFind: a path through nested objects whose keys may themselves hold dots. */
function deepFind(obj: unknown, path: string, separator = KEY_SEPARATOR): unknown {
  if (!obj) return undefined;
  const record = obj as Record<string, unknown>;
  if (record[path]) return record[path];
  const tokens = path.split(separator);
  let current: unknown = obj;
  for (let i = 0; i < tokens.length; ) {
    if (!current || typeof current !== "object") return undefined;
    let next: unknown;
    let nextPath = "";
    for (let j = i; j < tokens.length; ++j) {
      if (j !== i) nextPath += separator;
      nextPath += tokens[j];
      next = (current as Record<string, unknown>)[nextPath];
      if (next !== undefined) {
        if (["string", "number", "boolean"].indexOf(typeof next) > -1 && j < tokens.length - 1) continue;
        i += j - i + 1;
        break;
      }
    }
    current = next;
  }
  return current;
}

function overloadOptions(args: unknown[]): Options {
  let ret: Options = {};
  if (typeof args[1] === "object" && args[1] !== null) ret = args[1] as Options;
  if (isString(args[1])) ret.defaultValue = args[1];
  if (isString(args[2])) ret.tDescription = args[2];
  if ((typeof args[2] === "object" && args[2] !== null) || (typeof args[3] === "object" && args[3] !== null)) {
    const extra = (args[3] || args[2]) as Options;
    for (const key of Object.keys(extra)) ret[key] = extra[key];
  }
  return ret;
}

function hasDefaultValue(options: Options): boolean {
  for (const option in options) {
    if (Object.prototype.hasOwnProperty.call(options, option) && option.startsWith("defaultValue") && options[option] !== undefined) return true;
  }
  return false;
}

const isValidLookup = (res: unknown) => res !== undefined && res !== null;

class Emitter {
  private listeners = new Map<string, Set<Listener>>();
  on(events: string, listener: Listener) {
    for (const event of events.split(" ")) {
      if (!event) continue;
      if (!this.listeners.has(event)) this.listeners.set(event, new Set());
      this.listeners.get(event)!.add(listener);
    }
    return this;
  }
  off(event: string, listener?: Listener) {
    if (!listener) this.listeners.delete(event);
    else this.listeners.get(event)?.delete(listener);
    return this;
  }
  emit(event: string, ...args: unknown[]) {
    for (const listener of [...(this.listeners.get(event) ?? [])]) listener(...args);
  }
}

export class I18nLite extends Emitter {
  options: LiteConfig & { ignoreJSONStructure: true };
  language = "";
  languages: string[] = [];
  resolvedLanguage: string | undefined;
  isInitialized = false;
  isLanguageChangingTo: string | undefined;
  /** Loaded bundles: data[language][namespace]. */
  readonly store: Emitter & { data: Record<string, Record<string, Bundle>> };
  readonly services: { backendConnector: { backend: object; state: Record<string, number> } };
  private plurals = new Map<string, Intl.PluralRules | null>();
  /** Plain lookups already resolved (emptied whenever a bundle arrives). */
  private memo = new Map<string, string>();
  /** toResolveHierarchy's answer per language code. */
  private hierarchies = new Map<string, string[]>();
  private loading = new Map<string, Promise<void>>();

  constructor(
    config: LiteConfig,
    private load: LoadBundle,
  ) {
    super();
    this.options = { ...config, ignoreJSONStructure: true };
    this.store = Object.assign(new Emitter(), { data: {} });
    this.services = { backendConnector: { backend: {}, state: {} } };
    this.t = this.t.bind(this);
  }

  /** Modules are wired by the caller (react-i18next's initReactI18next.init(this)). */
  use() {
    return this;
  }

  async init(lng: string) {
    await this.loadLanguage(lng);
    this.setLanguage(lng);
    this.isInitialized = true;
    this.emit("initialized", this.options);
    return this.t;
  }

  async changeLanguage(lng: string) {
    this.isLanguageChangingTo = lng;
    await this.loadLanguage(lng);
    if (this.isLanguageChangingTo === lng) {
      this.setLanguage(lng);
      this.isLanguageChangingTo = undefined;
      this.emit("languageChanged", lng);
    }
    return this.t;
  }

  loadNamespaces(ns: string | string[], callback?: () => void) {
    const wanted = (isString(ns) ? [ns] : ns).filter((n) => !this.options.ns.includes(n));
    this.options.ns = [...this.options.ns, ...wanted];
    const done = Promise.all(this.languages.map((l) => this.loadBundles(l, this.options.ns))).then(() => callback?.());
    return done;
  }

  loadLanguages(lngs: string | string[], callback?: () => void) {
    const list = isString(lngs) ? [lngs] : lngs;
    return Promise.all(list.map((l) => this.loadLanguage(l))).then(() => callback?.());
  }

  hasLoadedNamespace(ns: string, options: { lng?: string } = {}) {
    if (!this.isInitialized || !this.languages.length) return false;
    const lng = options.lng || this.resolvedLanguage || this.languages[0];
    const lastLng = this.languages[this.languages.length - 1];
    const notPending = (l: string, n: string) => [-1, 0, 2].includes(this.services.backendConnector.state[`${l}|${n}`]);
    if (this.hasResourceBundle(lng, ns)) return true;
    return notPending(lng, ns) && notPending(lastLng, ns);
  }

  hasResourceBundle(lng: string, ns: string) {
    return this.getResourceBundle(lng, ns) !== undefined;
  }

  getResourceBundle(lng: string, ns: string) {
    return this.store.data[lng]?.[ns];
  }

  getFixedT(lng: string | string[] | null, ns?: string | string[] | null, keyPrefix?: string) {
    const fixedT: TFunction = (key, opts, ...rest) => {
      // A plain lookup (no options) is remembered: most of a page's texts are, and resolving one
      // costs microseconds that add up to milliseconds on a long list (bench/RESULTS.md).
      const plain = opts === undefined && rest.length === 0 && isString(key);
      const memoKey = plain ? `${fixedT.lng ?? fixedT.lngs?.join(",") ?? this.language}\u0001${fixedT.ns ?? ""}\u0001${fixedT.keyPrefix ?? ""}\u0001${key}` : "";
      if (plain) {
        const known = this.memo.get(memoKey);
        if (known !== undefined) return known;
      }
      const options: Options = typeof opts !== "object" || opts === null ? overloadOptions([key, opts, ...rest]) : { ...opts };
      options.lng = options.lng || fixedT.lng;
      options.lngs = options.lngs || fixedT.lngs;
      options.ns = options.ns || fixedT.ns;
      if (options.keyPrefix !== "") options.keyPrefix = options.keyPrefix || keyPrefix || fixedT.keyPrefix;
      const prefix = options.keyPrefix as string | undefined;
      const resultKey = prefix && Array.isArray(key) ? key.map((k) => `${prefix}${KEY_SEPARATOR}${k}`) : prefix ? `${prefix}${KEY_SEPARATOR}${key}` : key;
      const text = this.t(resultKey, options);
      if (plain) this.memo.set(memoKey, text);
      return text;
    };
    if (isString(lng)) fixedT.lng = lng;
    else fixedT.lngs = lng ?? undefined;
    fixedT.ns = ns ?? undefined;
    fixedT.keyPrefix = keyPrefix;
    return fixedT;
  }

  t(keys: string | string[] | null | undefined, opts?: Options | string, ...rest: unknown[]): string {
    let options: Options = typeof opts !== "object" || opts === null ? overloadOptions([keys, opts, ...rest]) : { ...opts };
    if (!options) options = {};
    if (keys === undefined || keys === null) return "";
    const keyList = Array.isArray(keys) ? keys : [String(keys)];
    const { key } = this.extractFromKey(keyList[keyList.length - 1], options);
    const lng = (options.lng as string | undefined) || this.language;
    const resolved = this.resolve(keyList, options);
    let res: unknown = resolved.res;
    if (res !== undefined && res !== null && typeof res === "object") {
      if (!options.returnObjects) return `key '${key} (${this.language})' returned an object instead of string.`;
      return res as unknown as string;
    }
    const needsPlural = options.count !== undefined && !isString(options.count);
    const suffix = needsPlural ? this.pluralSuffix(lng, options.count as number, options) : "";
    const zero = needsPlural && !options.ordinal && options.count === 0;
    const defaultValue =
      (zero && options[`defaultValue${PLURAL_SEPARATOR}zero`]) || options[`defaultValue${suffix}`] || options.defaultValue;
    if (!isValidLookup(res) && hasDefaultValue(options)) res = defaultValue;
    if (!isValidLookup(res)) res = key;
    const data = options.replace && !isString(options.replace) ? (options.replace as Options) : options;
    return this.interpolate(res, data, options);
  }

  // ------------------------------------------------------------------------------------------

  private extractFromKey(key: string, options: Options) {
    let namespaces = (options.ns as string | string[] | undefined) || this.options.defaultNS || [];
    if (key.indexOf(NS_SEPARATOR) > -1 && looksLikeObjectPath(key)) {
      const parts = key.split(NS_SEPARATOR);
      namespaces = parts.shift()!;
      key = parts.join(KEY_SEPARATOR);
    }
    const list = isString(namespaces) ? [namespaces] : namespaces;
    // As i18next does: the fallback namespace is appended to every lookup's list.
    return { key, namespaces: this.options.fallbackNS ? [...list, this.options.fallbackNS] : list };
  }

  private resolve(keys: string[], options: Options) {
    let found: unknown;
    for (const k of keys) {
      if (isValidLookup(found)) break;
      const { key, namespaces } = this.extractFromKey(k, options);
      const needsPlural = options.count !== undefined && !isString(options.count);
      const zero = needsPlural && !options.ordinal && options.count === 0;
      const context = options.context;
      const needsContext = context !== undefined && (isString(context) || typeof context === "number") && context !== "";
      const codes = (options.lngs as string[] | undefined) || this.toResolveHierarchy((options.lng as string | undefined) || this.language);
      for (const ns of namespaces) {
        if (isValidLookup(found)) break;
        for (const code of codes) {
          if (isValidLookup(found)) break;
          const finalKeys = [key];
          const suffix = needsPlural ? this.pluralSuffix(code, options.count as number, options) : "";
          const ordinalPrefix = `${PLURAL_SEPARATOR}ordinal${PLURAL_SEPARATOR}`;
          if (needsPlural) {
            finalKeys.push(key + suffix);
            if (options.ordinal && suffix.indexOf(ordinalPrefix) === 0) finalKeys.push(key + suffix.replace(ordinalPrefix, PLURAL_SEPARATOR));
            if (zero) finalKeys.push(`${key}${PLURAL_SEPARATOR}zero`);
          }
          if (needsContext) {
            const contextKey = `${key}${CONTEXT_SEPARATOR}${context}`;
            finalKeys.push(contextKey);
            if (needsPlural) {
              finalKeys.push(contextKey + suffix);
              if (options.ordinal && suffix.indexOf(ordinalPrefix) === 0) finalKeys.push(contextKey + suffix.replace(ordinalPrefix, PLURAL_SEPARATOR));
              if (zero) finalKeys.push(`${contextKey}${PLURAL_SEPARATOR}zero`);
            }
          }
          let possibleKey: string | undefined;
          while ((possibleKey = finalKeys.pop())) {
            if (!isValidLookup(found)) found = this.getResource(code, ns, possibleKey);
          }
        }
      }
    }
    return { res: found };
  }

  private getResource(lng: string, ns: string, key: string): unknown {
    const result = getPath(this.store.data, [lng, ns, ...key.split(KEY_SEPARATOR)]);
    if (result) return result;
    return deepFind(this.store.data[lng]?.[ns], key);
  }

  private pluralSuffix(code: string, count: number, options: Options): string {
    const type = options.ordinal ? "ordinal" : "cardinal";
    const cacheKey = `${code}|${type}`;
    if (!this.plurals.has(cacheKey)) {
      let rule: Intl.PluralRules | null;
      try {
        rule = new Intl.PluralRules(code.replace("_", "-"), { type });
      } catch {
        rule = null;
      }
      this.plurals.set(cacheKey, rule);
    }
    const rule = this.plurals.get(cacheKey);
    if (!rule) return "";
    return `${PLURAL_SEPARATOR}${options.ordinal ? `ordinal${PLURAL_SEPARATOR}` : ""}${rule.select(count)}`;
  }

  /** {{name}} and {{- name}}: i18next's interpolation with escapeValue off and skipOnVariables on. */
  private interpolate(res: unknown, data: Options, options: Options): string {
    if (!isString(res)) return res as string;
    let str = res;
    for (const regex of [/\{\{-(.+?)\}\}/g, /\{\{(.+?)\}\}/g]) {
      let replaces = 0;
      let match: RegExpExecArray | null;
      while ((match = regex.exec(str))) {
        let name = match[1].trim();
        // {{value, format}}: the legacy `interpolation.format` function, as i18next calls it.
        const comma = name.indexOf(FORMAT_SEPARATOR);
        const format = this.options.interpolation?.format;
        if (comma > 0 && format) {
          const formatName = name.slice(comma + 1).trim();
          name = name.slice(0, comma).trim();
          const text = String(format(getPath(data, name), formatName, this.language, options));
          str = str.replace(match[0], () => text);
          regex.lastIndex += text.length - match[0].length;
          if (++replaces >= 1000) break;
          continue;
        }
        let value: unknown = getPath(data, name);
        if (!value && isString(name)) value = deepFind(data, name);
        if (value === undefined) {
          if (Object.prototype.hasOwnProperty.call(options, name)) value = "";
          else continue;
        } else if (!isString(value)) {
          value = value == null ? "" : "" + value;
        }
        const text = value as string;
        str = str.replace(match[0], () => text);
        regex.lastIndex += text.length - match[0].length;
        if (++replaces >= 1000) break;
      }
    }
    return str;
  }

  /** The language and its fallback, as i18next resolves them with load: "currentOnly". */
  toResolveHierarchy(code: string): string[] {
    let known = this.hierarchies.get(code);
    if (!known) this.hierarchies.set(code, (known = this.resolveHierarchy(code)));
    return known;
  }

  private resolveHierarchy(code: string): string[] {
    const codes: string[] = [];
    const add = (c: string) => {
      if (c && this.options.supportedLngs.includes(c) && !codes.includes(c)) codes.push(c);
    };
    add(this.formatLanguageCode(code));
    add(this.formatLanguageCode(this.options.fallbackLng));
    return codes;
  }

  private formatLanguageCode(code: string): string {
    if (!isString(code) || code.indexOf("-") < 0) return code;
    try {
      const formatted = Intl.getCanonicalLocales(code)[0];
      if (formatted) return formatted;
    } catch {
      /* keep the code as given */
    }
    return code;
  }

  private setLanguage(lng: string) {
    this.language = lng;
    this.languages = this.toResolveHierarchy(lng);
    this.resolvedLanguage = this.languages.find((l) => this.options.ns.every((n) => this.hasResourceBundle(l, n))) ?? this.languages[0];
  }

  private loadLanguage(lng: string) {
    return Promise.all(this.toResolveHierarchy(lng).map((l) => this.loadBundles(l, this.options.ns))).then(() => undefined);
  }

  private loadBundles(language: string, namespaces: string[]) {
    return Promise.all(namespaces.map((ns) => this.loadBundle(language, ns))).then(() => undefined);
  }

  private loadBundle(language: string, ns: string): Promise<void> {
    const id = `${language}|${ns}`;
    const state = this.services.backendConnector.state;
    if (state[id] === 2) return Promise.resolve();
    let pending = this.loading.get(id);
    if (pending) return pending;
    state[id] = 1;
    const attempt = (tried: number): Promise<void> =>
      this.load(language, ns).then(
        (bundle) => {
          (this.store.data[language] ??= {})[ns] = bundle;
          this.memo.clear();
          state[id] = 2;
          this.store.emit("added", language, ns);
          this.emit("loaded", { [language]: [ns] });
        },
        (error: { retry?: boolean }) => {
          if (error?.retry && tried < MAX_RETRIES) {
            return new Promise<void>((resolve) => setTimeout(resolve, RETRY_WAIT_MS * 2 ** tried)).then(() => attempt(tried + 1));
          }
          state[id] = -1;
          console.warn(`i18n: could not load ${language}/${ns}`, error);
        },
      );
    pending = attempt(0).finally(() => this.loading.delete(id));
    this.loading.set(id, pending);
    return pending;
  }
}
