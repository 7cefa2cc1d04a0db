/** Library version; recorded as the last key of every signature. Kept equal to package.json by a test. */
export const VERSION = '0.1.0'
