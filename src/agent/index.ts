// The agent family: tool calls an agent made against expected ones, and a run's latency, tokens and cost.
export { argsEqual, callMatches, maxPairing, type Pairing } from './call-match.js'
export {
  BUDGET_LIMIT_KEYS,
  BUDGET_OPTION_KEYS,
  measureBudget,
  type BudgetCase,
  type BudgetCaseMeasure,
  type BudgetCheck,
  type BudgetDetails,
  type BudgetLimitKey,
  type BudgetLimits,
  type BudgetScore,
  type ModelPrice,
  type TokenUsage,
} from './budget.js'
export { TOOL_CALL_F1_OPTION_KEYS, toolCallF1, type ToolCallF1Details, type ToolCallF1Options, type ToolCallF1Score } from './tool-call-f1.js'
export {
  describeCall,
  isAsymmetric,
  readExpectedCall,
  readExpectedCalls,
  readToolCalls,
  type ArgsMatch,
  type AsymmetricArgs,
  type ExpectedToolCall,
  type ReadExpectedCall,
  type ToolCall,
} from './tool-calls.js'
export {
  ARGS_MATCHES,
  matchTrajectory,
  TRAJECTORY_OPTION_KEYS,
  TRAJECTORY_ORDERS,
  type TrajectoryDetails,
  type TrajectoryOptions,
  type TrajectoryOrder,
  type TrajectoryScore,
} from './trajectory.js'
export { retrievalFromSteps, STEPS_MODES, type RetrievalStep, type StepRanking, type StepsMode } from './retrieval-steps.js'
