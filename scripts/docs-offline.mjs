#!/usr/bin/env node
/**
 * After `redocly build-docs`: the page is one self-contained file, except that Redoc's "API docs
 * by Redocly" logo is an image on Redocly's CDN, broken offline. Inline a small logo instead.
 */
import { readFileSync, writeFileSync } from 'node:fs';

const file = process.argv[2] ?? 'docs/api/index.html';
const logo = `data:image/svg+xml,${encodeURIComponent(
  '<svg xmlns="http://www.w3.org/2000/svg" width="120" height="16"><text x="0" y="12" font-family="sans-serif" font-size="11" fill="#666">Redocly</text></svg>',
)}`;
const html = readFileSync(file, 'utf8').replace(/https:\/\/cdn\.redoc\.ly\/redoc\/logo-mini(?:-full)?\.svg/g, logo);
writeFileSync(file, html);
