import Interactors
import InteractorsTestKit
import Testing

/// One handler at a time for the process: these tests set it, one after another, and put the default back. (A
/// handler receiving a real diagnostic is tested in a child process, where no other test's capture can take it:
/// `ServiceRegistrySignalHostTests.aTearDownFailureGoesToTheDiagnosticsHandlerTheAppSet`.)
@Suite(.serialized) struct DiagnosticsTests {
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
