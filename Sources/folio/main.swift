import FolioCLI
import Foundation

exit(FolioCLI.main(CommandLine.arguments))
