// The model (pins, photos, album states, settings) is part of what this module speaks in.
@_exported import Model
