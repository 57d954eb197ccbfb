import BookshelfApp
import BookshelfHTTPClient
import Foundation
import Testing

// The create-only PUT, the DELETE that says whether the book was there, and the pages of `GET /books`, told as a
// client sees them: the same stories over every store and variant.

/// `If-None-Match: *` asks the PUT to create the book only.
let createOnly = [("If-None-Match", "*")]

/// A create-only PUT stores a new book (201) and refuses an existing one (412, nothing written); without the header,
/// or with entity tags (none of which a book has), a PUT replaces as it always did.
func exerciseCreateOnlyPuts(of server: TestServer) async throws {
    let first = #"{"id":"emma","title":"Emma","author":"Jane Austen"}"#
    let created = try await server.request("PUT", "/books/emma", headers: createOnly, body: first)
    #expect(created.status == 201, "\(created.bodyText)")
    #expect(try JSONDecoder().decode(Book.self, from: Data(created.body)).title == "Emma")

    let second = #"{"id":"emma","title":"Persuasion","author":"Jane Austen"}"#
    let refused = try await server.request("PUT", "/books/emma", headers: createOnly, body: second)
    #expect(refused.status == 412, "\(refused.bodyText)")
    #expect(errorBody(refused)?.code == "conflict")
    #expect(try await title(of: "emma", on: server) == "Emma", "a refused PUT writes nothing")

    let tagged = try await server.request(
        "PUT",
        "/books/emma",
        headers: [("If-None-Match", #""v1", W/"v2""#)],
        body: second
    )
    #expect(tagged.status == 200, "no book has an entity tag, so none matches: \(tagged.bodyText)")
    #expect(try await title(of: "emma", on: server) == "Persuasion")
    #expect(try await server.request("PUT", "/books/emma", body: first).status == 200, "an unconditional PUT replaces")
    #expect(try await title(of: "emma", on: server) == "Emma")

    let mismatched = try await server.request("PUT", "/books/ubik", headers: createOnly, body: first)
    #expect(mismatched.status == 400, "a request that fails without its condition fails so with it (RFC 9110 §13.2.1)")
}

/// A DELETE of a missing book is a 404; of a stored one a 204, and then a 404.
func exerciseDeletes(of server: TestServer) async throws {
    let missing = try await server.request("DELETE", "/books/nobody")
    #expect(missing.status == 404, "\(missing.bodyText)")
    #expect(errorBody(missing)?.code == "notFound")
    let book = #"{"id":"dune","title":"Dune","author":"Frank Herbert"}"#
    #expect(try await server.request("PUT", "/books/dune", body: book).status == 200)
    #expect(try await server.request("DELETE", "/books/dune").status == 204)
    #expect(try await server.request("DELETE", "/books/dune").status == 404)
    #expect(try await server.request("GET", "/books/dune").status == 404)
}

/// `GET /books?limit=N&after=ID` walks the books in ascending id order by the ids' UTF-8 bytes (`B` < `a` < `é`),
/// page by page, to an empty page; without `limit` the answer is every book in the order first stored. A limit
/// that is not a whole number from 0 to the maximum, or an `after` alone, is a 400.
func exercisePages(of server: TestServer) async throws {
    let stored = ["é", "b", "B", "a1", "c", "a"]
    for id in stored {
        let answer = try await server.request(
            "PUT",
            "/books/" + percentEncoded(id),
            body: #"{"id":"\#(id)","title":"T \#(id)","author":"A"}"#
        )
        #expect(answer.status == 200, "\(id): \(answer.bodyText)")
    }
    #expect(try await ids(on: server, "/books") == stored, "without a limit, every book in the order first stored")

    var walked: [[String]] = []
    var after: String?
    repeat {
        let cursor = after.map { "&after=" + percentEncoded($0) } ?? ""
        walked.append(try await ids(on: server, "/books?limit=4" + cursor))
        after = walked.last?.last
    } while walked.last?.isEmpty == false && walked.count < 10
    #expect(walked == [["B", "a", "a1", "b"], ["c", "é"], []])
    #expect(try await ids(on: server, "/books?limit=0") == [])
    #expect(try await ids(on: server, "/books?limit=1000&after=a") == ["a1", "b", "c", "é"])
    #expect(try await ids(on: server, "/books?limit=2&after=0") == ["B", "a"], "after need not be an id stored")

    for query in ["limit=-1", "limit=ten", "limit=1001", "limit=", "limit=1.5", "after=a"] {
        let answer = try await server.request("GET", "/books?" + query)
        #expect(answer.status == 400, "\(query): \(answer.bodyText)")
        #expect(errorBody(answer)?.code == "invalidQuery", "\(query)")
    }
}

/// Sixteen create-only PUTs of one new id at once, each with its own title: exactly one creates the book (201), the
/// others answer 412, and the book stored is the one whose PUT answered 201.
func exerciseConcurrentCreateOnlyPuts(of server: TestServer) async throws {
    let answers = try await withThrowingTaskGroup(of: (title: String, status: Int).self) { group in
        for writer in 0..<16 {
            group.addTask {
                let title = "Title \(writer)"
                let body = #"{"id":"contested","title":"\#(title)","author":"A"}"#
                let answer = try await server.request("PUT", "/books/contested", headers: createOnly, body: body)
                return (title, answer.status)
            }
        }
        var answers: [(title: String, status: Int)] = []
        for try await answer in group { answers.append(answer) }
        return answers
    }
    let winners = answers.filter { $0.status == 201 }
    #expect(winners.count == 1, "\(answers)")
    #expect(answers.filter { $0.status == 412 }.count == 15, "\(answers)")
    #expect(try await title(of: "contested", on: server) == winners.first?.title)
}

/// `text` with every byte but ASCII letters and digits percent-encoded.
private func percentEncoded(_ text: String) -> String {
    text.utf8.map { byte in
        let scalar = Unicode.Scalar(byte)
        return scalar.isASCII && scalar.properties.isAlphabetic || (0x30...0x39).contains(byte)
            ? String(scalar) : String(format: "%%%02X", byte)
    }.joined()
}

/// The title `GET /books/{id}` answers.
private func title(of id: String, on server: TestServer) async throws -> String {
    let answer = try await server.request("GET", "/books/\(id)")
    return try JSONDecoder().decode(Book.self, from: Data(answer.body)).title
}

/// The ids of the books `GET path` answers, in its order.
private func ids(on server: TestServer, _ path: String) async throws -> [String] {
    let answer = try await server.request("GET", path)
    try #require(answer.status == 200, "GET \(path): \(answer.status) \(answer.bodyText)")
    return try JSONDecoder().decode([Book].self, from: Data(answer.body)).map(\.id)
}
