import { defineConfig } from 'vitest/config'

// vitest runs the domain and adapter specs in spec/ only. The engine tests in tests/ run under
// `claude plugin test` (they import 'claude-code/testing', which exists only inside the engine).
export default defineConfig({
  test: {
    include: ['spec/**/*.spec.ts'],
    environment: 'node',
  },
})
