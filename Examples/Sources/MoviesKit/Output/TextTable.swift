import Foundation

/// A plain-text table with a header, a rule under it and aligned columns.
///
/// Widths count `Character`s, which lines up Latin, accented and most other text in a terminal
/// (East Asian wide characters take two cells and will stand out a little).
struct TextTable {
    /// How a column's cells are padded.
    enum Alignment {
        /// Text starts at the column's left edge.
        case left
        /// Text ends at the column's right edge; for numbers.
        case right
    }

    /// A column's header and alignment.
    struct Column {
        let header: String
        let alignment: Alignment
    }

    let columns: [Column]
    private(set) var rows: [[String]] = []

    /// Creates an empty table with these columns.
    init(_ columns: [Column]) {
        self.columns = columns
    }

    /// Adds a row; missing cells are blank and extra cells are dropped.
    mutating func append(_ cells: [String]) {
        rows.append(columns.indices.map { $0 < cells.count ? cells[$0] : "" })
    }

    /// The table's lines, columns separated by two spaces, trailing spaces trimmed.
    var lines: [String] {
        let widths = columns.indices.map { index in
            rows.map { $0[index].count }.reduce(columns[index].header.count, max)
        }
        let header = render(columns.map(\.header), widths: widths)
        let rule = widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ")
        return [header, rule] + rows.map { render($0, widths: widths) }
    }

    private func render(_ cells: [String], widths: [Int]) -> String {
        let padded = cells.indices.map { index in
            let padding = String(repeating: " ", count: widths[index] - cells[index].count)
            return columns[index].alignment == .left ? cells[index] + padding : padding + cells[index]
        }
        return String(padded.joined(separator: "  ").reversed().drop(while: { $0 == " " }).reversed())
    }
}
