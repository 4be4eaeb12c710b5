/**
 * The one rule for environment names a caller may give a game server, for every runtime.
 * Names are plain (letters, digits, `_`, `-`, `.`; Gameye-style `my-secret` is fine). Refused are
 * the names that change what runs or how, whatever the game server is written in (the shell's
 * start-up files, the dynamic linker, interpreters' option and module-path variables, OpenSSL's
 * and glibc's configuration), and the names the runtime sets to tell a session who it is. An
 * image may declare an allowlist instead: then exactly those names are accepted (never the
 * session's identity, which is the runtime's to set).
 */

/** At most MAP_KEY_MAX_LENGTH (128) characters, as every key of a session's maps (labels.ts). */
const PLAIN = /^[A-Za-z_][A-Za-z0-9_.-]{0,127}$/;

/** What the runtime sets itself: the session's identity and its ports. */
const IDENTITY = /^(SESSION_|PORT_|PUBLIC_PORT_)/;

/** Interpreter and loader hijacking, by exact name or prefix (`*`). */
export const RESERVED_ENV_NAMES = [
  'PATH',
  'ENV',
  'BASH_ENV',
  'BASH_FUNC_*',
  'SHELLOPTS',
  'BASHOPTS',
  'IFS',
  'PS4',
  'CDPATH',
  'LD_*',
  'GLIBC_TUNABLES',
  'MALLOC_*',
  'GCONV_PATH',
  'LOCPATH',
  'NLSPATH',
  'HOSTALIASES',
  'RESOLV_HOST_CONF',
  'NODE_*',
  'PYTHON*',
  'PERL5*',
  'PERLLIB',
  'RUBYOPT',
  'RUBYLIB',
  'JAVA_TOOL_OPTIONS',
  'JDK_JAVA_OPTIONS',
  '_JAVA_OPTIONS',
  'CLASSPATH',
  'OPENSSL_*',
  'SSL_CERT_*',
  'DOTNET_*',
  'CORECLR_*',
  'COMPlus_*',
  'LUA_*',
  'TCLLIBPATH',
  'SESSION_*',
  'PORT_*',
  'PUBLIC_PORT_*',
] as const;

const RESERVED = new RegExp(
  `^(${RESERVED_ENV_NAMES.map((name) => (name.endsWith('*') ? `${name.slice(0, -1)}.*` : `${name}$`)).join('|')})`,
);

export function isPlainEnvName(name: string): boolean {
  return PLAIN.test(name);
}

/** The names of `env` a caller may not set, in their order; empty when all are fine. */
export function refusedEnvNames(names: readonly string[], allowlist?: readonly string[]): string[] {
  if (allowlist) {
    const allowed = new Set(allowlist);
    return names.filter((name) => !isPlainEnvName(name) || IDENTITY.test(name) || !allowed.has(name));
  }
  return names.filter((name) => !isPlainEnvName(name) || RESERVED.test(name));
}

/** One sentence for the 422 that lists the refused names. */
export function envRuleText(allowlist?: readonly string[]): string {
  if (allowlist) return `this image accepts only ${allowlist.join(', ') || 'no names'}`;
  return 'must be a plain name of at most 128 characters (letters, digits, _, -, .) and not one that changes what runs (PATH, ENV, BASH_ENV, LD_*, NODE_*, PYTHON*, PERL5*, JAVA_TOOL_OPTIONS, OPENSSL_*, GCONV_PATH, ...) or who the session is (SESSION_*, PORT_*)';
}
