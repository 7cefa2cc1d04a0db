// The read-only file system tests (test/reporter/erofs.test.ts) under Jest as well: the report, summary,
// baseline and judge cache writers are the same code in the CommonJS build.
import '../reporter/erofs.test.js'
