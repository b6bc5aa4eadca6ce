declare module "*.sql" {
  const text: string;
  export default text;
}
// Files embedded with `with { type: "file" }` (the app's icons): the import is their path.
declare module "*.png" {
  const path: string;
  export default path;
}
declare module "*.svg" {
  const path: string;
  export default path;
}
