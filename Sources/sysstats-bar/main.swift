import CBarSys
