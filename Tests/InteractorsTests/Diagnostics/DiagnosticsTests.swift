import Interactors
import InteractorsTestKit
import Testing

/// One handler at a time for the process: these tests set it, one after another, and put the default back.
@Suite(.serialized) struct DiagnosticsTests {
    @Test func aHandlerReceivesEachDiagnosticWithTheProductThatWroteIt() {
        let received = LockedBox<[Diagnostic]>([])
        Diagnostics.setHandler { diagnostic in received.withLock { $0.append(diagnostic) } }
        defer { Diagnostics.setHandler(Diagnostics.standardError) }
        // Written here, as a product's file writes it: the product is the writing file's module.
        writeToStandardError("DiagnosticsTests: provoked on purpose")
        let diagnostics = received.withLock { $0 }
        #expect(
            diagnostics.contains {
                $0.product == "InteractorsTests" && $0.message == "DiagnosticsTests: provoked on purpose"
            }
        )
    }

    @Test func aCaptureTakesDiagnosticsBeforeTheHandler() {
        let received = LockedBox<[Diagnostic]>([])
        Diagnostics.setHandler { diagnostic in received.withLock { $0.append(diagnostic) } }
        defer { Diagnostics.setHandler(Diagnostics.standardError) }
        let (_, captured) = withCapturedDiagnostics { writeToStandardError("DiagnosticsTests: captured") }
        #expect(captured.contains("DiagnosticsTests: captured"))
        #expect(!received.withLock { $0 }.contains { $0.message == "DiagnosticsTests: captured" })
    }

    @Test func aDiagnosticPrintsAsItsMessage() {
        let diagnostic = Diagnostic(product: "InteractorsData", message: "notes.json was moved aside")
        #expect("\(diagnostic)" == "notes.json was moved aside")
        #expect(diagnostic.product == "InteractorsData")
    }
}
