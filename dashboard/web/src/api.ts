// Every read goes through here: same-origin JSON, and a 401 sends the browser to the login.

export class ApiError extends Error {
  constructor(readonly status: number, readonly code: string, message: string) {
    super(message);
  }
}

export function loginUrl(location: { pathname: string; search: string }): string {
  return '/auth/login?return_to=' + encodeURIComponent(location.pathname + location.search);
}

function toLogin(): never {
  window.location.assign(loginUrl(window.location));
  throw new ApiError(401, 'unauthenticated', 'signing in');
}

export async function getResponse(path: string, accept = 'application/json', postBody?: string): Promise<Response> {
  let response: Response;
  try {
    response = await fetch(
      path,
      postBody === undefined
        ? { credentials: 'same-origin', headers: { Accept: accept } }
        : { method: 'POST', credentials: 'same-origin', headers: { Accept: accept, 'Content-Type': 'application/json' }, body: postBody },
    );
  } catch (e) {
    throw new ApiError(0, 'network', 'the dashboard server did not answer (' + String(e) + ')');
  }
  if (response.status === 401) {
    toLogin();
  }
  if (!response.ok) {
    let code = 'http_' + response.status;
    let message = response.status + ' ' + response.statusText;
    try {
      const body = await response.json();
      code = body.error ?? code;
      message = body.message ?? message;
    } catch {
      // not JSON: keep the status line
    }
    throw new ApiError(response.status, code, message);
  }
  return response;
}

export async function getJson<T>(path: string): Promise<T> {
  return (await getResponse(path)).json() as Promise<T>;
}

/** A side-effect-free POST (the manifest check); errors and a 401 are handled as for reads. */
export async function postJson<T>(path: string, body: unknown): Promise<T> {
  return (await getResponse(path, 'application/json', JSON.stringify(body))).json() as Promise<T>;
}

/** A query string from the non-empty values, in a stable order. */
export function query(params: Record<string, string | number | undefined | null>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== null && value !== '') {
      search.set(key, String(value));
    }
  }
  const text = search.toString();
  return text ? '?' + text : '';
}

export function controllerPath(cluster: string, namespace: string, name: string): string {
  return '/controllers/' + encodeURIComponent(namespace) + '/' + encodeURIComponent(name) + query({ cluster });
}

export function broodOperationPath(cluster: string, namespace: string, name: string): string {
  return '/broodoperations/' + [cluster, namespace, name].map(encodeURIComponent).join('/');
}
