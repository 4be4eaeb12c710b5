/** The admin panel: sign-in, then the pages, in one small Preact app. */
import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { api, describeError, setCsrfToken, whenSignedOut } from './api';
import { ErrorMessage } from './components';
import { ImagesPage, LocationsPage, SessionsPage } from './fleet';
import { OverviewPage } from './overview';
import { linkProps, navigate, usePath } from './router';
import './styles.css';
import { CreateUserPage, UpdateUserPage, UsersPage } from './users';

function SignIn({ onSignedIn }: { onSignedIn: (email: string) => void }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string>();
  return (
    <main class="sign-in">
      <h1>Session host admin</h1>
      <form
        class="stack"
        onSubmit={async (event) => {
          event.preventDefault();
          const { data, error } = await api.POST('/admin/api/auth', { body: { email, password } });
          if (error) return setError(describeError(error));
          setCsrfToken(data.csrf_token);
          onSignedIn(data.email);
        }}
      >
        <label for="email">Email</label>
        <input id="email" type="email" autoComplete="username" required value={email} onInput={(e) => setEmail(e.currentTarget.value)} />
        <label for="password">Password</label>
        <input id="password" type="password" autoComplete="current-password" required value={password} onInput={(e) => setPassword(e.currentTarget.value)} />
        <ErrorMessage error={error} />
        <button type="submit">Sign in</button>
      </form>
    </main>
  );
}

const NAV = [
  ['/users', 'Users'],
  ['/locations', 'Locations'],
  ['/sessions', 'Sessions'],
  ['/images', 'Images'],
  ['/overview', 'Overview'],
] as const;

function Page({ path }: { path: string }) {
  if (path === '/users/new') return <CreateUserPage />;
  const user = /^\/users\/(acc_[0-9a-z]+)$/.exec(path);
  if (user) return <UpdateUserPage id={user[1]!} />;
  if (path === '/locations') return <LocationsPage />;
  if (path === '/sessions') return <SessionsPage />;
  if (path === '/images') return <ImagesPage />;
  if (path === '/overview') return <OverviewPage />;
  return <UsersPage />;
}

function App() {
  const path = usePath();
  const [operator, setOperator] = useState<string | null | undefined>(undefined);
  const [error, setError] = useState<string>();

  useEffect(() => {
    whenSignedOut(() => (setCsrfToken(undefined), setOperator(null)));
    // Signed in when the stored CSRF token still goes with the cookie (api.ts).
    void api.GET('/admin/api/auth').then(({ data }) => {
      if (!data) setCsrfToken(undefined);
      setOperator(data?.email ?? null);
    });
  }, []);
  useEffect(() => {
    const title = NAV.find(([p]) => path.startsWith(p))?.[1] ?? 'Users';
    document.title = `${title} · Session host admin`;
  }, [path]);

  if (operator === undefined) return <p>Loading…</p>;
  if (operator === null) return <SignIn onSignedIn={(email) => (setOperator(email), path === '/' && navigate('/users'))} />;
  return (
    <>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header>
        <span class="brand">Session host</span>
        <nav aria-label="Main">
          {NAV.map(([to, label]) => (
            <a key={to} {...linkProps(to)} aria-current={path.startsWith(to) || (to === '/users' && path === '/') ? 'page' : undefined}>
              {label}
            </a>
          ))}
        </nav>
        <span class="who">{operator}</span>
        <button
          type="button"
          class="secondary"
          onClick={async () => {
            const { error } = await api.DELETE('/admin/api/auth');
            if (error) return setError(describeError(error));
            setCsrfToken(undefined);
            setOperator(null);
          }}
        >
          Sign out
        </button>
      </header>
      <main id="main">
        <ErrorMessage error={error} />
        <Page path={path} />
      </main>
    </>
  );
}

render(<App />, document.getElementById('app')!);
