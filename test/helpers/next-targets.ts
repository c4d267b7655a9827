// Hostile `next` targets for the sign-in and welcome flows of every web app: each must
// leave the flow going to the app's default page, its session and log written once.

/** [what it is, the target] for an app under `prefix` (`/dashboard`, `/operator`, ...). */
export function hostileTargets(prefix: string): [string, string][] {
  return [
    ['CR LF', `${prefix}/companies\r\nX-Injected: 1`],
    ['LF', `${prefix}/x\nX-Injected: 1`],
    ['CR', `${prefix}/x\r`],
    ['BEL', `${prefix}/x\u0007`],
    ['tab', `${prefix}/x\ty`],
    ['DEL', `${prefix}/x\u007f`],
    ['C1 control', `${prefix}/x\u0085`],
    ['U+2028', `${prefix}/x\u2028y`],
    ['U+2029', `${prefix}/x\u2029y`],
    ['non-ASCII', `${prefix}/caf\u00e9`],
    ['protocol-relative', `//evil.example${prefix}/`],
    ['slash backslash', '/\\evil.example'],
    ['backslash in the app', `${prefix}/\\evil.example`],
    ['double slash in the app', `${prefix}//evil.example`],
    ['encoded CR LF', `${prefix}/%0d%0aX-Injected:%201`],
    ['encoded dot segments', `${prefix}/%2e%2e/v2/posts`],
    ['dot segments', `${prefix}/../v2/posts`],
    ['javascript:', 'javascript:alert(1)'],
    ['absolute URL', `https://evil.example${prefix}/`],
    ['outside the app', '/v2/posts'],
    ['overlong', `${prefix}/${'a'.repeat(5000)}`],
  ];
}

/** `path` with `next` added to its query. */
export function withNext(path: string, next: string): string {
  return `${path}${path.includes('?') ? '&' : '?'}next=${encodeURIComponent(next)}`;
}
