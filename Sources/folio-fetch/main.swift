// folio-fetch: Folio's network helper. `folio market refresh` runs it once per request, so that
// only this program loads URLSession, libcurl and the TLS libraries (see `HelperTransport`).
import FolioNetwork
import Foundation

exit(FetchHelper.run(Array(CommandLine.arguments.dropFirst())))
