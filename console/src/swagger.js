// Swagger UI over the contract the service serves (GET /v1/openapi.yaml), from the npm bundle:
// nothing is loaded from elsewhere. "Try it out" sends the console's sign-in token.
import 'swagger-ui-dist/swagger-ui.css';
import { SwaggerUIBundle } from 'swagger-ui-dist';
import { authHeader } from './console/auth.js';

const base = new URL('.', window.location.href);
window.ui = SwaggerUIBundle({
  url: new URL('v1/openapi.yaml', base).toString(),
  dom_id: '#swagger-ui',
  deepLinking: true,
  // The contract names http://localhost:8080; "Try it out" goes to the service that served the page.
  servers: undefined,
  requestInterceptor: (request) => {
    const auth = authHeader();
    if (auth) request.headers.Authorization = auth;
    return request;
  },
  onComplete: () => {
    window.ui.specActions.updateJsonSpec({ ...window.ui.specSelectors.specJson().toJS(), servers: [{ url: base.origin }] });
  },
});
