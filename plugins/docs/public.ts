/** What other features' tests may use of docs: the plugin serving /openapi.json, to check their routes' documents. */
export { docsPlugin } from './index.ts'
