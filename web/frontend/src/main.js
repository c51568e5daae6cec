// Entry point of the page's bundle (web/frontend/build.mjs -> app.js).
import './app.js';
