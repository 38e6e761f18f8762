import * as esbuild from 'esbuild';
import { gzipSync } from 'node:zlib';
const cases = {
  data: `export { createBrowserRouter, RouterProvider, Link, useNavigate, useParams, useSearchParams, useLocation, Outlet, redirect, matchRoutes, isRouteErrorResponse, useRouteError, useNavigationType } from 'react-router'; export {RouterProvider as RP} from 'react-router/dom';`,
  declarative: `export { BrowserRouter, Routes, Route, Link, useNavigate, useParams, useSearchParams, useLocation, Outlet, matchRoutes, useNavigationType } from 'react-router';`,
};
for (const [name, contents] of Object.entries(cases)) {
  const r = await esbuild.build({ stdin: { contents, resolveDir: process.cwd() + '/app-react' }, bundle: true, minify: true, write: false, format: 'esm', external: ['react', 'react-dom'], define: { 'process.env.NODE_ENV': '"production"' } });
  const code = r.outputFiles[0].contents;
  console.log(name, code.length, gzipSync(code, { level: 9 }).length);
}
