import { isDeepStrictEqual } from "node:util";
import { serializerCompiler } from "fastify-type-provider-zod";

type SerializerCompiler = typeof serializerCompiler;

/**
 * How a route's response becomes JSON. The response schemas are the API's contract (OpenAPI at
 * /api/docs, and the web app's types); who checks them depends on where the app runs:
 *   - development and tests (`strict`): every response is parsed with its zod schema, and must come
 *     out of it unchanged. A field the schema does not name (a column a presenter forgot to leave
 *     out), a wrong type or a missing field fails the request with a 500 that names the route, so
 *     the API tests catch a presenter that drifts from its contract, and what the schema would have
 *     stripped can never reach a user unnoticed;
 *   - production: JSON.stringify of what the presenter built, nothing else. The presenters are the
 *     ones the tests held to their schemas, and the check cost the list a tenth of its time
 *     (docs/PERFORMANCE.md, performance issue part 3). The JSON goes out as UTF-8 bytes: given a
 *     string, Node's HTTP layer prepends the headers to it (a second string of the page's size) and
 *     converts that to bytes again when it writes; given a Buffer, it writes the headers and the
 *     body side by side. A 45 KB list page allocated a tenth less per request (decision 0020).
 */
export function responseSerializer(strict: boolean): SerializerCompiler {
  // Fastify sends a Buffer as it is; its type for a serializer's result says string only.
  if (!strict) return () => (data) => Buffer.from(JSON.stringify(data)) as unknown as string;
  return (route) => {
    const checked = serializerCompiler(route);
    return (data) => {
      const json = checked(data);
      const sent = JSON.stringify(data);
      if (json !== sent && !isDeepStrictEqual(JSON.parse(json), JSON.parse(sent))) {
        throw new Error(
          `${route.method} ${route.url}: the response is not exactly what its schema describes ` +
            `(a field the schema does not name, or a value it would change)`,
        );
      }
      return json;
    };
  };
}
