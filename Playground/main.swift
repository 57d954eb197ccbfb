// The tour of Interactors: `swift run Playground`. Each part prints what it does and the run ends by itself.

await loginTour()
await presentationTour()
compositionTour()
servicesTour()
dataTour()
print("\nTour finished.")
