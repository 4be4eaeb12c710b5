/** A tiny router over the History API: the panel's pages live under /admin/. */
import { useEffect, useState } from 'preact/hooks';

export const BASE = '/admin';

export function navigate(path: string): void {
  window.history.pushState(null, '', BASE + path);
  window.dispatchEvent(new PopStateEvent('popstate'));
}

/** The current path inside the panel, e.g. `/users/acc_1`. */
export function usePath(): string {
  const read = () => window.location.pathname.replace(/^\/admin/, '') || '/';
  const [path, setPath] = useState(read);
  useEffect(() => {
    const update = () => setPath(read());
    window.addEventListener('popstate', update);
    return () => window.removeEventListener('popstate', update);
  }, []);
  return path;
}

/** A link that navigates inside the panel without reloading. */
export function linkProps(path: string) {
  return {
    href: BASE + path,
    onClick: (event: MouseEvent) => {
      if (event.ctrlKey || event.metaKey || event.shiftKey || event.button !== 0) return;
      event.preventDefault();
      navigate(path);
    },
  };
}
