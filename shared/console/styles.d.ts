/** Stylesheets are bundled by esbuild next to the script (app-<hash>.css). */
declare module '*.css' {}
