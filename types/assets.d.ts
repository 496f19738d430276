// Files webpack turns into URLs (asset/resource) or side-effect styles.
declare module '*.svg' {
  const url: string;
  export default url;
}
declare module '*.css';
