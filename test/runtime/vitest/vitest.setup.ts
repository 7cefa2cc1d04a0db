// Listed FIRST in tsconfig.json's "files": with Vitest 4 this order once lost every async matcher's type.
import 'rag-matchers/vitest'
