import Foundation

/// The text `movies --help` prints.
public enum Usage {
    /// The usage text, listing every subcommand and option.
    public static var text: String {
        let synopses = Subcommand.all.map(\.synopsis)
        let width = synopses.map(\.count).reduce(0, max) + 2
        let subcommands = zip(synopses, Subcommand.all).map { synopsis, subcommand in
            "  " + synopsis.padding(toLength: width, withPad: " ", startingAt: 0) + subcommand.summary
        }
        let environments = APIEnvironment.named.compactMap(\.name).joined(separator: "|")
        return """
            USAGE: movies [<subcommand>] [<arguments>] [options]

            Browses movies through the TMDB v3 API with NetworkLayer. Without --base-url or --env,
            an embedded server on 127.0.0.1 answers from built-in fixtures, so no network or key is needed.

            SUBCOMMANDS:
            \(subcommands.joined(separator: "\n"))

            OPTIONS:
              --base-url <url>   Send requests to this API, e.g. https://api.themoviedb.org/3
              --env <name>       Send requests to a named environment: \(environments)
              --api-key <key>    The TMDB v3 API key (default: $TMDB_API_KEY with --base-url or --env,
                                 the fixture key with the embedded server)
              --timeout <secs>   Give up on a request after this many seconds (default: 30)
              -h, --help         Show this text

            EXAMPLES:
              movies
              movies search "heat" --page 1
              movies details 550
              movies --base-url https://api.themoviedb.org/3 --api-key "$TMDB_API_KEY" top-rated
            """
    }
}
