// The console's shell: header with navigation, links to the API pages and the sign-in box; a hash
// route picks the page. The commit log is polled once here and shared by every page.
import { StrictMode, useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import './console.css';
import { onUnauthorized } from './api.js';
import { setToken, token } from './auth.js';
import { useCommitLog } from './common.jsx';
import { CommitsPage } from './commits.jsx';
import { SqlPage } from './sql.jsx';
import { StoryPage } from './story.jsx';
import { TablesPage } from './tables.jsx';

function parseRoute(hash) {
  const [path, search = ''] = hash.replace(/^#/, '').split('?');
  const parts = path.split('/').filter(Boolean).map(decodeURIComponent);
  const params = new URLSearchParams(search);
  return { page: parts[0] || 'tables', arg: parts[1] || null, sub: parts[2] || null, params };
}

function useRoute() {
  const [route, setRoute] = useState(() => parseRoute(window.location.hash));
  useEffect(() => {
    const on = () => setRoute(parseRoute(window.location.hash));
    window.addEventListener('hashchange', on);
    return () => window.removeEventListener('hashchange', on);
  }, []);
  return route;
}

const navigate = (hash) => { window.location.hash = hash; };

function SignIn() {
  const [value, setValue] = useState('');
  const [signedIn, setSignedIn] = useState(Boolean(token()));
  const [needed, setNeeded] = useState(false);
  useEffect(() => onUnauthorized(() => setNeeded(true)), []);
  if (signedIn) {
    return (
      <div className="signin">
        <span>Signed in</span>
        <button type="button" onClick={() => { setToken(''); setSignedIn(false); window.location.reload(); }}>Sign out</button>
      </div>
    );
  }
  return (
    <form className="signin" onSubmit={(e) => { e.preventDefault(); setToken(value); setSignedIn(true); window.location.reload(); }}>
      {needed && <span className="needed" role="alert">The service asks for credentials.</span>}
      <label htmlFor="token">Token or API key</label>
      <input id="token" type="password" autoComplete="off" value={value} onChange={(e) => setValue(e.target.value)} size={18} />
      <button type="submit" disabled={!value}>Sign in</button>
    </form>
  );
}

function App() {
  const route = useRoute();
  const log = useCommitLog();
  const link = (page, label) => (
    <a href={`#/${page}`} aria-current={route.page === page ? 'page' : undefined}>{label}</a>
  );
  let body;
  switch (route.page) {
    case 'sql': body = <SqlPage log={log} />; break;
    case 'story': body = <StoryPage log={log} table={route.arg} keyValues={route.params.getAll('key')} navigate={navigate} />; break;
    case 'commits': body = <CommitsPage log={log} />; break;
    default: body = <TablesPage log={log} table={route.arg} view={route.sub} navigate={navigate} />;
  }
  return (
    <>
      <a className="skip" href="#main" onClick={(e) => { e.preventDefault(); document.getElementById('main').focus(); }}>Skip to content</a>
      <header>
        <h1>Verso</h1>
        <nav aria-label="Console pages">
          {link('tables', 'Tables')}
          {link('sql', 'Statements')}
          {link('story', 'Key story')}
          {link('commits', 'Commits')}
          <span className="sep" aria-hidden="true">|</span>
          <a href="swagger-ui.html">REST API</a>
          <a href="graphiql">GraphiQL</a>
        </nav>
        <span className="latest" aria-live="polite">{log.latest ? `latest commit ${log.latest}` : ''}</span>
        <SignIn />
      </header>
      <main id="main" tabIndex={-1}>{body}</main>
    </>
  );
}

createRoot(document.getElementById('root')).render(<StrictMode><App /></StrictMode>);
