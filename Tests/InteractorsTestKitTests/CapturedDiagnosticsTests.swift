import Interactors
import InteractorsTestKit
import Testing

@Suite struct CapturedDiagnosticsTests {
    @Test func aDiagnosticWrittenInsideTheCaptureIsReturnedInsteadOfPrinted() {
        let (value, diagnostics) = withCapturedDiagnostics { () -> Int in
            writeToStandardError("CapturedDiagnosticsTests: provoked on purpose")
            return 7
        }
        #expect(value == 7)
        #expect(diagnostics.contains("CapturedDiagnosticsTests: provoked on purpose"))
    }

    @Test func anAsyncBodysDiagnosticsAreCapturedToo() async {
        let (_, diagnostics) = await withCapturedDiagnostics {
            await Task.yield()
            writeToStandardError("CapturedDiagnosticsTests: provoked from async code")
        }
        #expect(diagnostics.contains("CapturedDiagnosticsTests: provoked from async code"))
    }

    @Test func aClosedCaptureTakesNothingMore() {
        let capture = DiagnosticCapture()
        writeToStandardError("CapturedDiagnosticsTests: while open")
        let lines = capture.close()
        #expect(lines.contains("CapturedDiagnosticsTests: while open"))
        let (_, later) = withCapturedDiagnostics { writeToStandardError("CapturedDiagnosticsTests: later") }
        #expect(later.contains("CapturedDiagnosticsTests: later"))
        #expect(!capture.lines.contains("CapturedDiagnosticsTests: later"))
    }
}
