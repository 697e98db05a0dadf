// GraphiQL bundled from npm (Spring GraphQL's own page loads it from a CDN). Spring GraphQL serves
// this page at /graphiql?path=/graphql; the console's sign-in token goes along as a header.
import 'graphiql/style.css';
import 'graphiql/setup-workers/vite';
import { createRoot } from 'react-dom/client';
import { GraphiQL, HISTORY_PLUGIN } from 'graphiql';
import { createGraphiQLFetcher } from '@graphiql/toolkit';
import { authHeader } from './console/auth.js';

const params = new URLSearchParams(window.location.search);
const path = params.get('path') || '/graphql';
const url = `${window.location.protocol}//${window.location.host}${path}`;
const fetcher = createGraphiQLFetcher({
  url,
  // Verso's /graphql answers plain JSON (no @defer/@stream): the simple fetcher, not the multipart one.
  enableIncrementalDelivery: false,
  fetch: (input, init = {}) => {
    const headers = new Headers(init.headers);
    const auth = authHeader();
    if (auth && !headers.has('Authorization')) headers.set('Authorization', auth);
    return fetch(input, { ...init, headers });
  },
});

const defaultQuery = `# Verso's GraphQL schema follows the catalog: every table is a query field
# (rows, <table>_by_key, <table>_history, <table>_aggregate) and has mutations.
# Open the documentation explorer on the left to browse it; Ctrl+Enter runs.
{
  _commit
}
`;

createRoot(document.getElementById('graphiql')).render(
  <GraphiQL fetcher={fetcher} plugins={[HISTORY_PLUGIN]} defaultQuery={defaultQuery}
    defaultEditorToolsVisibility={true} />,
);
