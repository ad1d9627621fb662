// Swagger UI over the committed contract, every operation ready to run with its documented examples.
"use strict";
window.addEventListener("DOMContentLoaded", () => {
  window.ui = window.SwaggerUIBundle({
    url: new URL("docs/openapi.json", document.baseURI).href,
    dom_id: "#swagger-ui",
    presets: [window.SwaggerUIBundle.presets.apis],
    plugins: [window.SwaggerUIBundle.plugins.DownloadUrl],
    layout: "BaseLayout",
    deepLinking: true,
    tryItOutEnabled: true, // "Try it out" is on: each request body starts as its first example
    displayOperationId: true,
    displayRequestDuration: true,
    defaultModelsExpandDepth: 0,
    docExpansion: "list",
    validatorUrl: null, // never ask an online validator about the contract
  });
});
