/** The server's routes as data, for the parameter generator: the list lives with the routes (the MCP server on stdio reads it too). */
export { routeList, standInDeps } from '../../../server/route-list';
