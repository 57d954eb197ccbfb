// InteractorsTestKit: fakes and drivers for testing code built on Interactors.
import Interactors
