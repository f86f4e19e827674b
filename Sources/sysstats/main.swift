// sysstats: the command-line interface; everything is in the SysstatsCLI library.
import SysstatsCLI

SysstatsCommand.runMain()
