import BookshelfApp
import BookshelfHTTPClient
import Foundation
import Testing

/// Stores, reads, lists and deletes a book through `server`'s routes, as a REST client expects, and reads its
/// health: the same story over every store and variant.
func exerciseTheRoutes(of server: TestServer, variant: Variant) async throws {
    let dune = #"{"id":"b 1","title":"Dune","author":"Frank Herbert"}"#
    let put = try await server.request("PUT", "/books/b%201", body: dune)
    #expect(put.status == 200)
    #expect(
        try JSONDecoder().decode(Book.self, from: Data(put.body))
            == Book(id: "b 1", title: "Dune", author: "Frank Herbert")
    )
    let get = try await server.request("GET", "/books/b%201")
    #expect(get.status == 200)
    #expect(try JSONDecoder().decode(Book.self, from: Data(get.body)).title == "Dune")
    let list = try await server.request("GET", "/books")
    #expect(try JSONDecoder().decode([Book].self, from: Data(list.body)).map(\.id) == ["b 1"])
    #expect(try await server.request("DELETE", "/books/b%201").status == 204)
    let again = try await server.request("DELETE", "/books/b%201")
    #expect(again.status == 404, "the book was not there: \(again.bodyText)")
    #expect(errorBody(again)?.code == "notFound")
    let gone = try await server.request("GET", "/books/b%201")
    #expect(gone.status == 404)
    #expect(errorBody(gone)?.code == "notFound")
    let health = try await server.request("GET", "/health")
    #expect(health.status == 200)
    #expect(health.bodyText.contains(#""variant":"\#(variant.rawValue)""#))
}
