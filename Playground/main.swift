// The tour of Interactors: `swift run Playground`. Each part prints what it does and the run ends by itself.

await loginTour()
await presentationTour()
compositionTour()
blockingTour()
servicesTour()
#if os(macOS) || os(Linux)  // the data tour starts a local server in a child process
dataTour()
#endif
print("\nTour finished.")
