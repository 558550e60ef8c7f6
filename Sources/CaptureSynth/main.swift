print("capture-synth")
