/** The API describing itself: the OpenAPI document and the Postman collection, both public. */
import { z } from 'zod';
import { createOpenApiDocument } from '../openapi';
import { createPostmanCollection } from '../postman';
import { defineRoute, type Route } from '../route';

const Document = z.record(z.string(), z.unknown()).meta({ description: 'A JSON document, served without the envelope.' });

/** Takes the other routes and returns them with the two documents that describe all of them. */
export function withDocuments(routes: readonly Route[], { version, publicUrl }: { version: string; publicUrl: string }): Route[] {
  const documents: Route[] = [
    defineRoute({
      path: '/openapi.json',
      tag: 'System',
      access: 'public',
      raw: true,
      summary: 'This OpenAPI 3.1 document',
      query: {},
      response: Document,
      handle: async () => openapi,
    }),
    defineRoute({
      path: '/postman.json',
      tag: 'System',
      access: 'public',
      raw: true,
      summary: 'A Postman collection (v2.1) of every endpoint',
      description:
        'Variables {{baseUrl}} and {{apiKey}} ({{webhookUrl}}: the receiver the webhook requests subscribe); each request tests that it succeeded. Runs as is with Newman.',
      query: {},
      response: Document,
      handle: async () => postman,
    }),
  ];
  const all = [...routes, ...documents];
  const openapi = createOpenApiDocument(all, version, publicUrl);
  const postman = createPostmanCollection(all, publicUrl);
  return all;
}
