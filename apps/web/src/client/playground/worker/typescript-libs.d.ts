/**
 * The ES library declarations (lib.es5.d.ts … lib.es2023.d.ts), by file name, put into the
 * worker's bundle by the build (src/build/typescript-libs.ts): the worker has no file system.
 */
declare module "virtual:typescript-libs" {
  const libs: Record<string, string>;
  export default libs;
}
