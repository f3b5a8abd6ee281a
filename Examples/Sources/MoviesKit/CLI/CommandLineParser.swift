import Foundation

/// Parses `movies` arguments into an ``Invocation``.
///
/// Options may come before or after the subcommand, as `--name value` or `--name=value`;
/// `--` ends the options, so `search -- --weird-title` searches for `--weird-title`. With no
/// subcommand, `popular` runs. `-h` or `--help` anywhere asks for the usage text.
public enum CommandLineParser {
    /// The options that take a value.
    enum Option: String, CaseIterable {
        case page = "--page"
        case baseURL = "--base-url"
        case environment = "--env"
        case apiKey = "--api-key"
        case timeout = "--timeout"
    }

    /// Parses `arguments` (without the program name).
    /// - Throws: ``UsageError`` saying what is wrong and what is expected.
    public static func parse(_ arguments: [String]) throws(UsageError) -> Invocation {
        var positionals: [String] = []
        var options: [Option: String] = [:]
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            if argument == "--" {
                positionals += remaining
                break
            }
            if argument == "-h" || argument == "--help" {
                return Invocation(action: .help)
            }
            guard argument.hasPrefix("-"), argument.count > 1, Double(argument) == nil else {
                positionals.append(argument)
                continue
            }
            let (name, inlineValue) = split(argument)
            guard let option = Option(rawValue: name) else {
                throw UsageError("unknown option '\(name)'")
            }
            guard let value = inlineValue ?? remaining.popFirst() else {
                throw UsageError("\(name) needs a value")
            }
            options[option] = value
        }
        return try invocation(positionals: positionals, options: options)
    }

    private static func invocation(positionals: [String], options: [Option: String]) throws(UsageError) -> Invocation {
        let name = positionals.first ?? Subcommand.all[0].name
        guard let subcommand = Subcommand.named(name) else {
            throw UsageError("unknown subcommand '\(name)'")
        }
        let arguments = Array(positionals.dropFirst())
        guard arguments.count == subcommand.arguments.count else {
            let expected = subcommand.arguments.isEmpty ? "no arguments" : subcommand.arguments.map { "<\($0)>" }.joined(separator: " ")
            let got = arguments.isEmpty ? "none" : "'\(arguments.joined(separator: " "))'"
            throw UsageError("\(subcommand.name) takes \(expected), got \(got)")
        }
        var page = 1
        if let text = options[.page] {
            guard subcommand.takesPage else {
                throw UsageError("\(subcommand.name) does not take --page")
            }
            page = try ArgumentValues.page(text)
        }
        let call = try subcommand.makeCall(arguments, page)
        let timeout = try options[.timeout].map { text throws(UsageError) in try ArgumentValues.timeout(text) }
        return Invocation(action: .call(call), target: try target(options), apiKey: options[.apiKey], timeout: timeout)
    }

    /// `--env` or `--base-url` (not both), or the embedded server when neither is given.
    private static func target(_ options: [Option: String]) throws(UsageError) -> Invocation.Target {
        switch (options[.environment], options[.baseURL]) {
        case (nil, nil):
            return .embedded
        case (let name?, nil):
            guard let environment = APIEnvironment(name: name) else {
                let names = APIEnvironment.named.compactMap(\.name).joined(separator: ", ")
                throw UsageError("--env must be one of \(names), got '\(name)'")
            }
            return .remote(environment)
        case (nil, let url?):
            guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(),
                scheme == "http" || scheme == "https", components.host?.isEmpty == false
            else {
                throw UsageError("--base-url must be an http or https URL such as https://api.themoviedb.org/3, got '\(url)'")
            }
            return .remote(.custom(url))
        case (.some, .some):
            throw UsageError("give either --env or --base-url, not both")
        }
    }

    /// `--name=value` → (`--name`, `value`); `--name` → (`--name`, `nil`).
    private static func split(_ argument: String) -> (name: String, value: String?) {
        guard let equals = argument.firstIndex(of: "=") else { return (argument, nil) }
        return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
    }
}
