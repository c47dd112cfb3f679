import CSystem
import ShflSystem

// Everything happens inside a function: in Embedded Swift, top-level variables would be
// unisolated globals, which Swift 6 rejects.
exit(ShflCommand.run(ProcessArguments.all))
